CREATE TABLE "usage_notices" (
	"account_id" text NOT NULL,
	"period" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" text NOT NULL,
	CONSTRAINT "usage_notices_account_id_period_kind_pk" PRIMARY KEY("account_id","period","kind")
);
--> statement-breakpoint
ALTER TABLE "usage_notices" ADD CONSTRAINT "usage_notices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;