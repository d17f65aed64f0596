-- Per-day usage tables keyed by their primary key alone (WITHOUT ROWID): a range of one
-- account's days is then read in key order from one B-tree instead of an index plus a
-- lookup per row, which halves GET /v1/usage over a month (docs/performance.md).
CREATE TABLE `__new_usage_daily` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`calc_id` text NOT NULL,
	`domain` text NOT NULL,
	`loads` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `day`, `calc_id`, `domain`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_usage_daily` (`account_id`, `day`, `calc_id`, `domain`, `loads`) SELECT `account_id`, `day`, `calc_id`, `domain`, `loads` FROM `usage_daily`;
--> statement-breakpoint
DROP TABLE `usage_daily`;
--> statement-breakpoint
ALTER TABLE `__new_usage_daily` RENAME TO `usage_daily`;
--> statement-breakpoint
CREATE INDEX `usage_daily_day_idx` ON `usage_daily` (`day`);
--> statement-breakpoint
CREATE TABLE `__new_webhook_daily` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`calc_id` text NOT NULL,
	`outcome` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `day`, `calc_id`, `outcome`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_webhook_daily` (`account_id`, `day`, `calc_id`, `outcome`, `calls`) SELECT `account_id`, `day`, `calc_id`, `outcome`, `calls` FROM `webhook_daily`;
--> statement-breakpoint
DROP TABLE `webhook_daily`;
--> statement-breakpoint
ALTER TABLE `__new_webhook_daily` RENAME TO `webhook_daily`;
--> statement-breakpoint
CREATE INDEX `webhook_daily_day_idx` ON `webhook_daily` (`day`);
