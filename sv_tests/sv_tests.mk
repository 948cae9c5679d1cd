# sv_tests fragment: filled in by the sv_tests owner
