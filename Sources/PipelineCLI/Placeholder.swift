enum PlaceholderPipelineCLI {}
