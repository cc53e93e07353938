"""NumPy has no autodiff; the gradient frontend raises before reaching a backend."""
