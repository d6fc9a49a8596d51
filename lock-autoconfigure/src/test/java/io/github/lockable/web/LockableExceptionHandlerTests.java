package io.github.lockable.web;

import java.time.Duration;
import java.util.Locale;

import org.junit.jupiter.api.Test;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.LockConflictException;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

class LockableExceptionHandlerTests {

	private final LockableExceptionHandler handler = new LockableExceptionHandler();

	@Test
	void retryAfterIsTheRemainingTtlInWholeSecondsRoundedUp() {
		assertThat(LockableExceptionHandler.seconds(Duration.ZERO)).isEqualTo(1);
		assertThat(LockableExceptionHandler.seconds(Duration.ofMillis(1))).isEqualTo(1);
		assertThat(LockableExceptionHandler.seconds(Duration.ofMillis(1000))).isEqualTo(1);
		assertThat(LockableExceptionHandler.seconds(Duration.ofMillis(1001))).isEqualTo(2);
		assertThat(LockableExceptionHandler.seconds(Duration.ofSeconds(30))).isEqualTo(30);
	}

	@Test
	void eachPolicyHasItsStatus() {
		assertThat(status(ConflictPolicy.CONFLICT)).isEqualTo(HttpStatus.CONFLICT);
		assertThat(status(ConflictPolicy.LOCKED)).isEqualTo(HttpStatus.LOCKED);
		assertThat(status(ConflictPolicy.TOO_MANY_REQUESTS)).isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
	}

	@Test
	void conflictIsAProblemWithRetryAfter() {
		ResponseEntity<ProblemDetail> response = this.handler
			.lockConflict(new LockConflictException(ConflictPolicy.CONFLICT, Duration.ofMillis(2500)));
		assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("3");
		assertThat(response.getBody().getProperties()).containsEntry("retryable", true);
	}

	@Test
	void problemTypeDoesNotDependOnTheDefaultLocale() {
		Locale defaultLocale = Locale.getDefault();
		Locale.setDefault(Locale.forLanguageTag("tr-TR"));
		try {
			ResponseEntity<ProblemDetail> response = this.handler
				.lockConflict(new LockConflictException(ConflictPolicy.CONFLICT, Duration.ofSeconds(1)));
			assertThat(response.getBody().getType()).hasToString("urn:lockable:problem:lock-conflict");
		}
		finally {
			Locale.setDefault(defaultLocale);
		}
	}

	private HttpStatus status(ConflictPolicy policy) {
		return HttpStatus.valueOf(this.handler.lockConflict(new LockConflictException(policy, Duration.ofSeconds(1)))
			.getStatusCode()
			.value());
	}

}
