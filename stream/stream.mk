# stream fragment: filled in by the stream owner
