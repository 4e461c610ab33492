package io.grove.accounting;

/** The accounting database refused or cannot be reached. */
public final class AccountingException extends Exception {

    private static final long serialVersionUID = 1L;

    public AccountingException(String message, Throwable cause) {
        super(message, cause);
    }
}
