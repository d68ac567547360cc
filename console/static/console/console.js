// The console's behaviour: data attributes only (no inline script: CSP).
