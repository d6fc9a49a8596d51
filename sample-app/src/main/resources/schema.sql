create table if not exists project (
    id uuid default random_uuid() primary key,
    name varchar(100) not null,
    archived boolean not null,
    archived_at timestamp with time zone,
    version bigint
);
