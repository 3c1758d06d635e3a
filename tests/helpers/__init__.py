"""What the tests share, each with one meaning: PDFs read as text and looked at as images
(``pdf``), users and their clients (``users``), and what a page shows (``pages``)."""
