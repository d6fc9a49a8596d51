package io.github.lockable;

import java.util.List;

/**
 * Lockable is misconfigured: {@code @Lockable} declarations or {@code lockable.*}
 * properties that cannot work. Thrown at startup, listing every problem at once, with the
 * action that fits them (the "Action:" of Spring Boot's failure report).
 */
public class LockableConfigurationException extends IllegalStateException {

	/** The action of an exception created without one. */
	static final String DEFAULT_ACTION = "Fix each problem listed above.";

	/** One sentence per problem. */
	private final List<String> problems;

	/** What to do about the problems, one sentence. */
	private final String action;

	/**
	 * Creates the exception, with an action that asks to fix each problem.
	 * @param problems one sentence per problem, naming the method or property
	 */
	public LockableConfigurationException(List<String> problems) {
		this(problems, DEFAULT_ACTION);
	}

	/**
	 * Creates the exception.
	 * @param problems one sentence per problem, naming the method or property
	 * @param action what to do about them, one sentence, such as
	 * {@code "Fix each lockable.* property listed above."}
	 */
	public LockableConfigurationException(List<String> problems, String action) {
		super(message(problems));
		this.problems = List.copyOf(problems);
		this.action = action;
	}

	/**
	 * Every problem found, one sentence each.
	 * @return the problems
	 */
	public List<String> getProblems() {
		return this.problems;
	}

	/**
	 * What to do about the problems, as the failure report's "Action:" says it.
	 * @return the action
	 */
	public String getAction() {
		return this.action;
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
