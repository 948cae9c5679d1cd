# tests fragment: filled in by the tests owner
