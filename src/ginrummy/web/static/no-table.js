/* The page of a table address that names no table (GET /table/ID answers 404 with it). */
mountTopbar("");
