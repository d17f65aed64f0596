CREATE TABLE `signing_secrets` (
	`account_id` text PRIMARY KEY NOT NULL,
	`secret` text NOT NULL,
	`created_at` text NOT NULL,
	`previous_secret` text,
	`previous_valid_until` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
