enum PlaceholderPipelineKit {}
