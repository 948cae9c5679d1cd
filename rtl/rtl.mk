# rtl fragment: filled in by the rtl owner
