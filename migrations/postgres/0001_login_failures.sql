CREATE TABLE "login_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"ends_at" bigint NOT NULL,
	"failures" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_failures_ends_at_idx" ON "login_failures" USING btree ("ends_at");