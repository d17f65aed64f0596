CREATE TABLE "results" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"calc_id" text NOT NULL,
	"domain" text NOT NULL,
	"created_at" text NOT NULL,
	"units" text NOT NULL,
	"inputs" text NOT NULL,
	"outputs" text NOT NULL,
	"contact_email" text,
	"contact_name" text,
	"visitor" text,
	"page" text,
	"utm" text,
	"prefill" text,
	"consent" text,
	"event_id" text
);
--> statement-breakpoint
CREATE TABLE "results_configs" (
	"account_id" text NOT NULL,
	"calc_id" text NOT NULL,
	"config" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "results_configs_account_id_calc_id_pk" PRIMARY KEY("account_id","calc_id")
);
--> statement-breakpoint
CREATE TABLE "results_monthly" (
	"account_id" text NOT NULL,
	"period" text NOT NULL,
	"submissions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "results_monthly_account_id_period_pk" PRIMARY KEY("account_id","period")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "results_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "results" ADD CONSTRAINT "results_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results_configs" ADD CONSTRAINT "results_configs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results_monthly" ADD CONSTRAINT "results_monthly_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "results_account_created_idx" ON "results" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "results_created_idx" ON "results" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "delivery_events_account_due_idx" ON "delivery_events" USING btree ("account_id","status","next_attempt_at");