CREATE TABLE `results` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`calc_id` text NOT NULL,
	`domain` text NOT NULL,
	`created_at` text NOT NULL,
	`units` text NOT NULL,
	`inputs` text NOT NULL,
	`outputs` text NOT NULL,
	`contact_email` text,
	`contact_name` text,
	`visitor` text,
	`page` text,
	`utm` text,
	`prefill` text,
	`consent` text,
	`event_id` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `results_account_created_idx` ON `results` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `results_created_idx` ON `results` (`created_at`);--> statement-breakpoint
CREATE TABLE `results_configs` (
	`account_id` text NOT NULL,
	`calc_id` text NOT NULL,
	`config` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `calc_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `results_monthly` (
	`account_id` text NOT NULL,
	`period` text NOT NULL,
	`submissions` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `period`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `accounts` ADD `results_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `delivery_events_account_due_idx` ON `delivery_events` (`account_id`,`status`,`next_attempt_at`);