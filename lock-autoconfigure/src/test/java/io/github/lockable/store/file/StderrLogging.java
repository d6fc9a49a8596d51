package io.github.lockable.store.file;

import java.io.Serial;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * SLF4J for {@link FileLockJob} processes, chosen with {@code -Dslf4j.provider}: INFO and
 * above to stderr, so that stdout carries only the job's answer, and without the start-up
 * cost of a full logging system in each of the many short processes.
 */
public final class StderrLogging implements SLF4JServiceProvider {

	private final ILoggerFactory loggerFactory = StderrLogger::new;

	private final IMarkerFactory markerFactory = new BasicMarkerFactory();

	private final MDCAdapter mdcAdapter = new NOPMDCAdapter();

	@Override
	public ILoggerFactory getLoggerFactory() {
		return this.loggerFactory;
	}

	@Override
	public IMarkerFactory getMarkerFactory() {
		return this.markerFactory;
	}

	@Override
	public MDCAdapter getMDCAdapter() {
		return this.mdcAdapter;
	}

	@Override
	public String getRequestedApiVersion() {
		return "2.0.99";
	}

	@Override
	public void initialize() {
	}

	private static final class StderrLogger extends LegacyAbstractLogger {

		@Serial
		private static final long serialVersionUID = 1L;

		StderrLogger(String name) {
			this.name = name;
		}

		@Override
		public boolean isTraceEnabled() {
			return false;
		}

		@Override
		public boolean isDebugEnabled() {
			return false;
		}

		@Override
		public boolean isInfoEnabled() {
			return true;
		}

		@Override
		public boolean isWarnEnabled() {
			return true;
		}

		@Override
		public boolean isErrorEnabled() {
			return true;
		}

		@Override
		protected String getFullyQualifiedCallerName() {
			return null;
		}

		@Override
		protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern,
				Object[] arguments, Throwable throwable) {
			if (level.toInt() < Level.INFO.toInt()) {
				return;
			}
			System.err.println("[pid " + ProcessHandle.current().pid() + "] " + level + " " + this.name + " - "
					+ MessageFormatter.basicArrayFormat(messagePattern, arguments));
			if (throwable != null) {
				throwable.printStackTrace();
			}
		}

	}

}
