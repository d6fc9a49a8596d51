package io.github.lockable.sample;

import java.time.Instant;
import java.util.UUID;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.server.ResponseStatusException;

/**
 * Changes projects in a transaction. The controller's lock is taken before this
 * transaction begins and released after it commits.
 */
@Service
class ProjectService {

	private final ProjectRepository projects;

	private final SimulatedWork work;

	ProjectService(ProjectRepository projects, SimulatedWork work) {
		this.projects = projects;
		this.work = work;
	}

	@Transactional
	Project create(String name) {
		return this.projects.save(new Project(null, name, false, null, null));
	}

	@Transactional
	Project archive(UUID projectId) {
		Project project = this.projects.findById(projectId)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No such project"));
		if (project.archived()) {
			return project;
		}
		this.work.perform();
		return this.projects.save(project.archive(Instant.now()));
	}

}
