CREATE TABLE `custom_calculator_versions` (
	`account_id` text NOT NULL,
	`calculator_id` text NOT NULL,
	`version` integer NOT NULL,
	`definition` text NOT NULL,
	`published_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `calculator_id`, `version`),
	FOREIGN KEY (`account_id`,`calculator_id`) REFERENCES `custom_calculators`(`account_id`,`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `custom_calculators` (
	`account_id` text NOT NULL,
	`id` text NOT NULL,
	`title` text NOT NULL,
	`draft` text NOT NULL,
	`published_version` integer,
	`generation` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
