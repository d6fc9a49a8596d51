package io.github.lockable;

import java.util.List;

/**
 * Lockable is misconfigured: {@code @Lockable} declarations or {@code lockable.*}
 * properties that cannot work. Thrown at startup, listing every problem at once.
 */
public class LockableConfigurationException extends IllegalStateException {

	/** One sentence per problem. */
	private final List<String> problems;

	/**
	 * Creates the exception.
	 * @param problems one sentence per problem, naming the method or property
	 */
	public LockableConfigurationException(List<String> problems) {
		super(message(problems));
		this.problems = List.copyOf(problems);
	}

	/**
	 * Every problem found, one sentence each.
	 * @return the problems
	 */
	public List<String> getProblems() {
		return this.problems;
	}

	private static String message(List<String> problems) {
		StringBuilder message = new StringBuilder("Lockable is misconfigured (").append(problems.size())
			.append((problems.size() == 1) ? " problem):" : " problems):");
		for (String problem : problems) {
			message.append(System.lineSeparator()).append(" - ").append(problem);
		}
		return message.toString();
	}

}
