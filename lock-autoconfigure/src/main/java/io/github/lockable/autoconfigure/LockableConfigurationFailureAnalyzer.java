package io.github.lockable.autoconfigure;

import io.github.lockable.LockableConfigurationException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link LockableConfigurationException} at startup: every problem, one per
 * line, and the action the exception says fits them (a declaration, a property, a missing
 * dependency).
 */
class LockableConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<LockableConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LockableConfigurationException cause) {
		StringBuilder description = new StringBuilder("Lockable found ").append(cause.getProblems().size())
			.append((cause.getProblems().size() == 1) ? " problem:" : " problems:")
			.append(System.lineSeparator());
		for (String problem : cause.getProblems()) {
			description.append(System.lineSeparator()).append("    - ").append(problem);
		}
		return new FailureAnalysis(description.toString(), cause.getAction(), cause);
	}

}
