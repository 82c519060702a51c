enum PlaceholderLearning {}
