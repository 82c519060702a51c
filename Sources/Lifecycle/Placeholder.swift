enum PlaceholderLifecycle {}
