package io.github.lockable.autoconfigure;

import java.nio.file.Path;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.lockable.LockableConfigurationException;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.file.FileLockStore;
import io.github.lockable.store.file.UnsafeLockDirectoryException;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.info.GitProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The file store: lock files in {@code lockable.file.directory}, for several processes on
 * one host. The directory has no default: a missing one, or one another user could tamper
 * with, fails startup with a {@link LockableConfigurationException} that says why. Lock
 * files record the application's version and commit when the build says
 * them ({@code build-info}, {@code git.properties}, or {@code spring.application.version}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "io.github.lockable.store.file.FileLockStore")
@ConditionalOnProperty(name = "lockable.store", havingValue = "file")
class FileLockStoreConfiguration {

	static final String DIRECTORY_REQUIRED = "lockable.file.directory must be set with lockable.store=file: every "
			+ "process that shares the locks must name the same directory, and no default is shared by all of them "
			+ "(java.io.tmpdir is private to a service under systemd PrivateTmp=, /dev/shm under PrivateDevices=, "
			+ "and every container has its own file system); use a directory of its own that they all see, such as "
			+ "/run/lock/<application> or /var/lib/<application>/locks, owned by the application's user, rwx------";

	/**
	 * The store; closed with the context, which wakes its waiters.
	 */
	@Bean
	@ConditionalOnMissingBean(LockStore.class)
	FileLockStore fileLockStore(LockableProperties properties, ObjectProvider<BuildProperties> build,
			ObjectProvider<GitProperties> git, Environment environment) {
		Path directory = properties.getFile().getDirectory();
		if (directory == null) {
			throw new LockableConfigurationException(List.of(DIRECTORY_REQUIRED));
		}
		try {
			return new FileLockStore(directory, version(build.getIfAvailable(), git.getIfAvailable(), environment),
					properties.getAcquireTimeout());
		}
		catch (UnsafeLockDirectoryException ex) {
			throw new LockableConfigurationException(List.of("lockable.file.directory: " + ex.getMessage()));
		}
	}

	static @Nullable String version(@Nullable BuildProperties build, @Nullable GitProperties git,
			Environment environment) {
		String version = (build != null) ? build.getVersion() : environment.getProperty("spring.application.version");
		String commit = (git != null) ? git.getShortCommitId() : null;
		if (version != null && commit != null) {
			return version + " (" + commit + ")";
		}
		return (version != null) ? version : commit;
	}

}
