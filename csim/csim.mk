# csim fragment: filled in by the csim owner
