interface ErrorBannerProps {
  message: string | null;
  onDismiss: () => void;
}

/** A failure the user must see; it stays until dismissed or replaced by success. */
export function ErrorBanner({ message, onDismiss }: ErrorBannerProps) {
  if (!message) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner">
      <span className="error-text">{message}</span>
      <button type="button" className="link-button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
