// Files imported `with { type: 'file' }`: the bundler embeds them in the executable and
// the import is their path (under /$bunfs/ once compiled), read with Bun.file.
declare module 'redoc/bundles/redoc.standalone.js' {
  const path: string;
  export default path;
}
