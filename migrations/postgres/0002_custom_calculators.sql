CREATE TABLE "custom_calculator_versions" (
	"account_id" text NOT NULL,
	"calculator_id" text NOT NULL,
	"version" integer NOT NULL,
	"definition" text NOT NULL,
	"published_at" text NOT NULL,
	CONSTRAINT "custom_calculator_versions_account_id_calculator_id_version_pk" PRIMARY KEY("account_id","calculator_id","version")
);
--> statement-breakpoint
CREATE TABLE "custom_calculators" (
	"account_id" text NOT NULL,
	"id" text NOT NULL,
	"title" text NOT NULL,
	"draft" text NOT NULL,
	"published_version" integer,
	"generation" text NOT NULL,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL,
	CONSTRAINT "custom_calculators_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
ALTER TABLE "custom_calculator_versions" ADD CONSTRAINT "custom_calculator_versions_calculator_fk" FOREIGN KEY ("account_id","calculator_id") REFERENCES "public"."custom_calculators"("account_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_calculators" ADD CONSTRAINT "custom_calculators_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;