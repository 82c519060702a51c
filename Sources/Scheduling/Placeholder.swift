enum PlaceholderScheduling {}
