enum PlaceholderIngestion {}
