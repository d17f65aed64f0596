CREATE TABLE `widget_configs` (
	`account_id` text NOT NULL,
	`calc_id` text NOT NULL,
	`webhook_url` text,
	`webhook_headers` text,
	`webhook_status` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `calc_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
