CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"plan" text DEFAULT 'free' NOT NULL,
	"api_key" text NOT NULL,
	"created_at" text NOT NULL,
	"tokens_valid_after" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domains" (
	"account_id" text NOT NULL,
	"origin" text NOT NULL,
	"status" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "domains_account_id_origin_pk" PRIMARY KEY("account_id","origin")
);
--> statement-breakpoint
CREATE TABLE "signing_secrets" (
	"account_id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"created_at" text NOT NULL,
	"previous_secret" text,
	"previous_valid_until" text
);
--> statement-breakpoint
CREATE TABLE "usage" (
	"account_id" text NOT NULL,
	"period" text NOT NULL,
	"loads" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_account_id_period_pk" PRIMARY KEY("account_id","period")
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"account_id" text NOT NULL,
	"day" text NOT NULL,
	"calc_id" text NOT NULL,
	"domain" text NOT NULL,
	"loads" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_account_id_day_calc_id_domain_pk" PRIMARY KEY("account_id","day","calc_id","domain")
);
--> statement-breakpoint
CREATE TABLE "webhook_daily" (
	"account_id" text NOT NULL,
	"day" text NOT NULL,
	"calc_id" text NOT NULL,
	"outcome" text NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "webhook_daily_account_id_day_calc_id_outcome_pk" PRIMARY KEY("account_id","day","calc_id","outcome")
);
--> statement-breakpoint
CREATE TABLE "widget_configs" (
	"account_id" text NOT NULL,
	"calc_id" text NOT NULL,
	"webhook_url" text,
	"webhook_headers" text,
	"webhook_status" text,
	"updated_at" text NOT NULL,
	CONSTRAINT "widget_configs_account_id_calc_id_pk" PRIMARY KEY("account_id","calc_id")
);
--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_secrets" ADD CONSTRAINT "signing_secrets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage" ADD CONSTRAINT "usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_daily" ADD CONSTRAINT "webhook_daily_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_configs" ADD CONSTRAINT "widget_configs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_email_unique" ON "accounts" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_api_key_unique" ON "accounts" USING btree ("api_key");--> statement-breakpoint
CREATE INDEX "domains_status_idx" ON "domains" USING btree ("account_id","status");--> statement-breakpoint
CREATE INDEX "usage_daily_day_idx" ON "usage_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "webhook_daily_day_idx" ON "webhook_daily" USING btree ("day");