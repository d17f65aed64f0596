/** What happened, as the server said it: errors as alerts, results as polite status. */
export interface NoticeState {
  kind: 'error' | 'ok';
  text: string;
}

export function Notice(props: { notice: NoticeState | null }) {
  const { notice } = props;
  // The live regions are always present so that a message appearing in them is announced.
  return (
    <>
      <p role="alert" class={notice?.kind === 'error' ? 'notice error' : 'notice-empty'}>
        {notice?.kind === 'error' ? notice.text : ''}
      </p>
      <p role="status" class={notice?.kind === 'ok' ? 'notice ok' : 'notice-empty'}>
        {notice?.kind === 'ok' ? notice.text : ''}
      </p>
    </>
  );
}
