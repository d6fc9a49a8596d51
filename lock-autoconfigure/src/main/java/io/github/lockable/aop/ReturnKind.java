package io.github.lockable.aop;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.springframework.util.ClassUtils;

/**
 * How a locked method returns, which decides how long the lock is held and what a skipped
 * call returns.
 */
enum ReturnKind {

	/** Held until the method returns or throws; a skipped call returns null. */
	VALUE,

	/** Held until the method returns or throws; a skipped call returns {@code Optional.empty()}. */
	OPTIONAL,

	/** Held until the returned stage completes; a skipped call returns a completed future of null. */
	COMPLETION_STAGE,

	/** Held from each subscription until completion, error or cancel; a skipped call is empty. */
	MONO;

	private static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
			ReturnKind.class.getClassLoader());

	static ReturnKind of(Class<?> returnType) {
		if (returnType == Optional.class) {
			return OPTIONAL;
		}
		if (returnType == CompletableFuture.class || returnType == CompletionStage.class) {
			return COMPLETION_STAGE;
		}
		if (REACTOR_PRESENT && returnType == reactor.core.publisher.Mono.class) {
			return MONO;
		}
		return VALUE;
	}

}
