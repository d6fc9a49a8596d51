package io.github.lockable.test.app;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import jakarta.validation.constraints.NotBlank;

import io.github.lockable.Lockable;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.validation.annotation.Validated;

/**
 * An application whose {@code @Validated} services are transactional, one of them locked.
 * Validation, transactions and the store all write to the store's timeline, so a test sees
 * in which order they ran.
 */
@ApplicationWithoutSecurity
@Import({ RecordingStoreConfiguration.class, ValidatedApplication.Renames.class, ValidatedApplication.Notes.class })
public class ValidatedApplication {

	@Bean
	TransactionExecutionListener transactionTimeline(RecordingLockStore timeline) {
		return new TransactionExecutionListener() {
			@Override
			public void beforeBegin(TransactionExecution transaction) {
				timeline.events().add("begin transaction");
			}
		};
	}

	/** A locked, transactional change: waits at the gate named after its argument. */
	@Service
	@Validated
	public static class Renames {

		private final Gate gate;

		private final RecordingLockStore timeline;

		Renames(Gate gate, RecordingLockStore timeline) {
			this.gate = gate;
			this.timeline = timeline;
		}

		@Lockable(key = "validated", ttl = "20s")
		@Transactional
		public String change(@NotBlank @Recorded String name) {
			this.timeline.events().add("change " + name + (inTransaction() ? " in transaction" : ""));
			this.gate.pass(name);
			return "changed to " + name;
		}

	}

	/** Validated and transactional, never locked. */
	@Service
	@Validated
	public static class Notes {

		@Transactional
		public String note(@NotBlank String text) {
			return text;
		}

	}

	/** Records in the timeline that the argument was validated, and whether inside a transaction. */
	@Target(ElementType.PARAMETER)
	@Retention(RetentionPolicy.RUNTIME)
	@Constraint(validatedBy = RecordedValidator.class)
	public @interface Recorded {

		String message() default "";

		Class<?>[] groups() default {};

		Class<? extends Payload>[] payload() default {};

	}

	static class RecordedValidator implements ConstraintValidator<Recorded, String> {

		private final RecordingLockStore timeline;

		RecordedValidator(RecordingLockStore timeline) {
			this.timeline = timeline;
		}

		@Override
		public boolean isValid(String value, ConstraintValidatorContext context) {
			this.timeline.events().add("validate" + (inTransaction() ? " in transaction" : ""));
			return true;
		}

	}

	private static boolean inTransaction() {
		return TransactionSynchronizationManager.isActualTransactionActive();
	}

}
