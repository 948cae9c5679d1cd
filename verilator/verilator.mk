# verilator fragment: filled in by the verilator owner
