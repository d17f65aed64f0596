CREATE TABLE "funnel_daily" (
	"account_id" text NOT NULL,
	"day" text NOT NULL,
	"calc_id" text NOT NULL,
	"domain" text NOT NULL,
	"event" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "funnel_daily_account_id_day_calc_id_domain_event_pk" PRIMARY KEY("account_id","day","calc_id","domain","event")
);
--> statement-breakpoint
ALTER TABLE "funnel_daily" ADD CONSTRAINT "funnel_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "funnel_daily_day_idx" ON "funnel_daily" USING btree ("day");