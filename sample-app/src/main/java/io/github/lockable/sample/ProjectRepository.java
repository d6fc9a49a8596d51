package io.github.lockable.sample;

import java.util.UUID;

import org.springframework.data.repository.CrudRepository;

interface ProjectRepository extends CrudRepository<Project, UUID> {

}
