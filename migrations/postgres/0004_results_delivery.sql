CREATE TABLE "delivery_attempts" (
	"event_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"account_id" text NOT NULL,
	"at" text NOT NULL,
	"outcome" text NOT NULL,
	"http_status" integer,
	"duration_ms" integer NOT NULL,
	"response" text NOT NULL,
	CONSTRAINT "delivery_attempts_event_id_attempt_pk" PRIMARY KEY("event_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "delivery_events" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"lease_owner" text,
	"lease_until" bigint,
	"created_at" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "results_endpoints" (
	"account_id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"events" text NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_valid_until" text,
	"disabled_reason" text,
	"failing_since" text,
	"created_at" text NOT NULL,
	"updated_at" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_event_id_delivery_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."delivery_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_events" ADD CONSTRAINT "delivery_events_account_id_results_endpoints_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."results_endpoints"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "results_endpoints" ADD CONSTRAINT "results_endpoints_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivery_attempts_account_idx" ON "delivery_attempts" USING btree ("account_id","at");--> statement-breakpoint
CREATE INDEX "delivery_events_due_idx" ON "delivery_events" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "delivery_events_account_idx" ON "delivery_events" USING btree ("account_id","created_at");