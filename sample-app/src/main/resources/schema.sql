create table if not exists project (
    id uuid default random_uuid() primary key,
    name varchar(100) not null,
    archived boolean not null,
    archived_at timestamp with time zone,
    version bigint,
    -- the fencing token of the last lock holder that wrote the row (see ProjectService.rename)
    fence bigint default 0 not null
);
