-- The per-day tallies of daily_tallies (see server/db/schema.ts), kept by the database itself so
-- no write path can forget them: a daily attempt counts once it has a rank key (it has ended),
-- under its cards home. Games are never deleted.
CREATE TRIGGER `daily_tallies_insert` AFTER INSERT ON `games`
WHEN new.`day` IS NOT NULL AND new.`rank_key` IS NOT NULL
BEGIN
	INSERT INTO `daily_tallies` (`day`, `foundations`, `finished`) VALUES (new.`day`, new.`foundations`, 1)
	ON CONFLICT (`day`, `foundations`) DO UPDATE SET `finished` = `finished` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `daily_tallies_update` AFTER UPDATE OF `rank_key`, `foundations`, `day` ON `games`
WHEN (old.`day` IS NOT NULL AND old.`rank_key` IS NOT NULL OR new.`day` IS NOT NULL AND new.`rank_key` IS NOT NULL)
	AND (old.`rank_key` IS NOT new.`rank_key` OR old.`foundations` IS NOT new.`foundations` OR old.`day` IS NOT new.`day`)
BEGIN
	UPDATE `daily_tallies` SET `finished` = `finished` - 1
	WHERE old.`rank_key` IS NOT NULL AND `day` = old.`day` AND `foundations` = old.`foundations`;
	INSERT INTO `daily_tallies` (`day`, `foundations`, `finished`)
	SELECT new.`day`, new.`foundations`, 1 WHERE new.`day` IS NOT NULL AND new.`rank_key` IS NOT NULL
	ON CONFLICT (`day`, `foundations`) DO UPDATE SET `finished` = `finished` + 1;
END;
