-- Funnel steps per account, day, calculator, origin and step. Keyed by the primary key
-- alone (WITHOUT ROWID), as the other per-day tables are.
CREATE TABLE `funnel_daily` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`calc_id` text NOT NULL,
	`domain` text NOT NULL,
	`event` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `day`, `calc_id`, `domain`, `event`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `funnel_daily_day_idx` ON `funnel_daily` (`day`);