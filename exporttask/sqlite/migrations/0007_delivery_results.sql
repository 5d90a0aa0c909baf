-- The outcome of a delivery's last failed attempt as data: the receiver's
-- HTTP status (0 when it did not answer) and the class of the failure
-- (exporttask.DeliveryErrorClass; '' when no attempt failed). last_error
-- keeps the deliverer's text, for the record only.
ALTER TABLE deliveries ADD COLUMN last_status_code INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deliveries ADD COLUMN last_error_class TEXT NOT NULL DEFAULT '';

-- The rows recorded before this version have only the text: read the two
-- columns from it as the API did until now. A text starting with "HTTP "
-- and a status from 100 to 999 is that status; else the first of these
-- that the text contains, ignoring case, gives the class.
UPDATE deliveries SET
	last_status_code = CASE
		WHEN substr(last_error, 1, 5) = 'HTTP ' AND substr(last_error, 6, 3) GLOB '[1-9][0-9][0-9]'
		THEN CAST(substr(last_error, 6, 3) AS INTEGER) ELSE 0 END,
	last_error_class = CASE
		WHEN substr(last_error, 1, 5) = 'HTTP ' AND substr(last_error, 6, 3) GLOB '[1-9][0-9][0-9]'
		THEN 'HTTP_STATUS'
		WHEN lower(last_error) LIKE '%webhook address not allowed%' OR lower(last_error) LIKE '%invalid webhook url%'
		THEN 'ADDRESS_NOT_ALLOWED'
		WHEN lower(last_error) LIKE '%deadline exceeded%' OR lower(last_error) LIKE '%timeout%'
		THEN 'TIMEOUT'
		WHEN lower(last_error) LIKE '%no such host%' OR lower(last_error) LIKE '%server misbehaving%'
		THEN 'DNS'
		WHEN lower(last_error) LIKE '%tls:%' OR lower(last_error) LIKE '%x509:%' OR lower(last_error) LIKE '%certificate%'
		THEN 'TLS'
		ELSE 'CONNECTION' END
WHERE last_error <> '';
