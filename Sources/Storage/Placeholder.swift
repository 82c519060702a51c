enum PlaceholderStorage {}
