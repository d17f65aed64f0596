CREATE TABLE `usage_daily` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`calc_id` text NOT NULL,
	`domain` text NOT NULL,
	`loads` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `day`, `calc_id`, `domain`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `usage_daily_day_idx` ON `usage_daily` (`day`);--> statement-breakpoint
CREATE TABLE `webhook_daily` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`calc_id` text NOT NULL,
	`outcome` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `day`, `calc_id`, `outcome`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_daily_day_idx` ON `webhook_daily` (`day`);