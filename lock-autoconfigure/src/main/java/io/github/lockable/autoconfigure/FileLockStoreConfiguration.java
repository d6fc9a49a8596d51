package io.github.lockable.autoconfigure;

import io.github.lockable.store.LockStore;
import io.github.lockable.store.file.FileLockStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.info.GitProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.lang.Nullable;

/**
 * The file store: lock files in {@code lockable.file.directory}, for several processes on
 * one host. Lock files record the application's version and commit when the build says
 * them ({@code build-info}, {@code git.properties}, or {@code spring.application.version}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "lockable.store", havingValue = "file")
class FileLockStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockStore.class)
	FileLockStore fileLockStore(LockableProperties properties, ObjectProvider<BuildProperties> build,
			ObjectProvider<GitProperties> git, Environment environment) {
		return new FileLockStore(properties.getFile().getDirectory(),
				version(build.getIfAvailable(), git.getIfAvailable(), environment), properties.getAcquireTimeout());
	}

	@Nullable
	static String version(@Nullable BuildProperties build, @Nullable GitProperties git, Environment environment) {
		String version = (build != null) ? build.getVersion() : environment.getProperty("spring.application.version");
		String commit = (git != null) ? git.getShortCommitId() : null;
		if (version != null && commit != null) {
			return version + " (" + commit + ")";
		}
		return (version != null) ? version : commit;
	}

}
