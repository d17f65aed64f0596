-- Owner caps on the account row; refused widget calls and skipped webhook pulls per day.
-- The per-day tables are keyed by their primary key alone (WITHOUT ROWID), as usage_daily is.
CREATE TABLE `refused_daily` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`calc_id` text NOT NULL,
	`reason` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `day`, `calc_id`, `reason`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `refused_daily_day_idx` ON `refused_daily` (`day`);--> statement-breakpoint
CREATE TABLE `skipped_daily` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`calc_id` text NOT NULL,
	`reason` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `day`, `calc_id`, `reason`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `skipped_daily_day_idx` ON `skipped_daily` (`day`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `loads_per_day` integer;--> statement-breakpoint
ALTER TABLE `accounts` ADD `loads_per_day_per_domain` integer;--> statement-breakpoint
ALTER TABLE `accounts` ADD `pulls_per_second` integer;--> statement-breakpoint
ALTER TABLE `accounts` ADD `register_domain` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- A `busy` pull made no call: it moves from the calls to the skipped pulls.
INSERT INTO `skipped_daily` (`account_id`, `day`, `calc_id`, `reason`, `count`) SELECT `account_id`, `day`, `calc_id`, 'busy', `calls` FROM `webhook_daily` WHERE `outcome` = 'busy';--> statement-breakpoint
DELETE FROM `webhook_daily` WHERE `outcome` = 'busy';
