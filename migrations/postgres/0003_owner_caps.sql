-- Owner caps on the account row; refused widget calls and skipped webhook pulls per day.
CREATE TABLE "refused_daily" (
	"account_id" text NOT NULL,
	"day" text NOT NULL,
	"calc_id" text NOT NULL,
	"reason" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "refused_daily_account_id_day_calc_id_reason_pk" PRIMARY KEY("account_id","day","calc_id","reason")
);
--> statement-breakpoint
CREATE TABLE "skipped_daily" (
	"account_id" text NOT NULL,
	"day" text NOT NULL,
	"calc_id" text NOT NULL,
	"reason" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "skipped_daily_account_id_day_calc_id_reason_pk" PRIMARY KEY("account_id","day","calc_id","reason")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "loads_per_day" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "loads_per_day_per_domain" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "pulls_per_second" integer;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "register_domain" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "refused_daily" ADD CONSTRAINT "refused_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skipped_daily" ADD CONSTRAINT "skipped_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refused_daily_day_idx" ON "refused_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "skipped_daily_day_idx" ON "skipped_daily" USING btree ("day");--> statement-breakpoint
-- A `busy` pull made no call: it moves from the calls to the skipped pulls.
INSERT INTO "skipped_daily" ("account_id", "day", "calc_id", "reason", "count") SELECT "account_id", "day", "calc_id", 'busy', "calls" FROM "webhook_daily" WHERE "outcome" = 'busy';--> statement-breakpoint
DELETE FROM "webhook_daily" WHERE "outcome" = 'busy';
