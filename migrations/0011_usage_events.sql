-- Usage events sent, one row per account, period and kind: the database, not a server's
-- memory, decides that a usage.warning or usage.exhausted goes out once.
CREATE TABLE `usage_notices` (
	`account_id` text NOT NULL,
	`period` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`account_id`, `period`, `kind`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
