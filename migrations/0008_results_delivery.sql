CREATE TABLE `delivery_attempts` (
	`event_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`account_id` text NOT NULL,
	`at` text NOT NULL,
	`outcome` text NOT NULL,
	`http_status` integer,
	`duration_ms` integer NOT NULL,
	`response` text NOT NULL,
	PRIMARY KEY(`event_id`, `attempt`),
	FOREIGN KEY (`event_id`) REFERENCES `delivery_events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `delivery_attempts_account_idx` ON `delivery_attempts` (`account_id`,`at`);--> statement-breakpoint
CREATE TABLE `delivery_events` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_owner` text,
	`lease_until` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `results_endpoints`(`account_id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `delivery_events_due_idx` ON `delivery_events` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `delivery_events_account_idx` ON `delivery_events` (`account_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `results_endpoints` (
	`account_id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_valid_until` text,
	`disabled_reason` text,
	`failing_since` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
