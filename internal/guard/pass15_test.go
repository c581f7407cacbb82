package guard

import "testing"

// TestToolFolderOptions: package managers, runners and build tools that
// work in another folder through their own options (uv --directory, npm
// --prefix, yarn --cwd, mise -C, …): the program they run resolves its
// relative names there.
func TestToolFolderOptions(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"uv --directory ~ run cat .ssh/id_rsa", KindDeny},
		{"uv --project=~ run cat .ssh/id_rsa", KindDeny},
		{"uv run --directory ~ cat .ssh/id_rsa", KindDeny},
		{"poetry -C ~ run cat .ssh/id_rsa", KindDeny},
		{"poetry --directory ~ run cat .ssh/id_rsa", KindDeny},
		{"pnpm --dir ~ exec cat .ssh/id_rsa", KindDeny},
		{"pnpm -C ~ exec cat .ssh/id_rsa", KindDeny},
		{"yarn --cwd ~ exec cat .ssh/id_rsa", KindDeny},
		{"mise -C ~ exec -- cat .ssh/id_rsa", KindDeny},
		{"mise --cd=~ x -- cat .ssh/id_rsa", KindDeny},
		{"npm --prefix ~ exec cat .ssh/id_rsa", KindDeny},
		{"npm -C~ exec -- cat .ssh/id_rsa", KindDeny},
		{"bun --cwd ~ run cat .ssh/id_rsa", KindDeny},
		{"conda run --cwd ~ cat .ssh/id_rsa", KindDeny},
		{`uv --directory "$(pick)" run cat .ssh/id_rsa`, KindDeny},
		{"make -C src test", ""},
		{"npm --prefix web test", ""},
		{"uv --directory web run pytest", ""},
		{"poetry -C web run pytest", ""},
		{"pnpm --dir web build", ""},
		{"yarn --cwd web test", ""},
		{"mise -C web exec -- node x.js", ""},
		{"terraform -chdir=infra plan", ""},
	})
}

// TestContainerMounts: a container's program (not analysed) reads and
// writes every file below a bind mount's host folder (docker run -v
// ~:/h img cat /h/.ssh/id_rsa), --mount type=bind, a volume bound to a
// host folder (device=), a compose file or Dockerfile the command writes,
// a Dockerfile from stdin.
func TestContainerMounts(t *testing.T) {
	m := DefaultRules().Matcher(Env{Cwd: tCwd, Home: tHome})
	runShell(t, m, []shellCase{
		{"docker run -v ~:/h alpine cat /h/.ssh/id_rsa", KindUnverifiable},
		{"docker run --volume=$HOME:/h alpine cat /h/.ssh/id_rsa", KindFolder},
		{"docker run -v$HOME:/h alpine cat /h/.ssh/id_rsa", KindFolder},
		{"docker run -v ~:/h:ro alpine cat /h/.ssh/id_rsa", KindUnverifiable},
		{"docker run -v $HOME:/h:ro alpine cat /h/.ssh/id_rsa", KindFolder},
		{"docker run --mount type=bind,src=$HOME,dst=/h alpine cat /h/.ssh/id_rsa", KindFolder},
		{"docker run --mount=type=bind,source=/home/user,target=/h,readonly alpine cat /h/.ssh/id_rsa", KindFolder},
		{"podman run -v /home/user:/h alpine cat /h/.ssh/id_rsa", KindFolder},
		{"nerdctl run -v ~/.ssh:/k:ro alpine cat /k/id_rsa", KindDeny},
		{`docker run -v "$X":/w alpine ls /w`, KindUnverifiable},
		{"docker volume create -o type=none -o o=bind -o device=$HOME h", KindFolder},
		{"docker volume create --opt=device=/home/user --opt o=bind h", KindFolder},
		{"docker run --mount type=volume,dst=/h,volume-opt=device=/home/user,volume-opt=o=bind alpine ls /h", KindFolder},
		{"printf 'services:\\n a:\\n  image: alpine\\n  volumes: [\"~:/w\"]\\n' > compose.yml && docker compose run a cat /w/.ssh/id_rsa", KindUnverifiable},
		{"printf 'FROM alpine\\nCOPY . /a\\nRUN cat /a/.e*\\n' > Dockerfile && docker build .", KindUnverifiable},
		{"printf 'FROM alpine\\n' > x.Dockerfile && docker build -f x.Dockerfile .", KindUnverifiable},
		{"printf 'FROM alpine\\nCOPY . /a\\nRUN cat /a/.e*\\n' | docker build -f - .", KindUnverifiable},
		{"docker build - < x", KindUnverifiable},
		{`printf 'services:\n a:\n  volumes: ["$HOME:/w"]\n' > c.yml && docker compose -f c.yml run a cat /w/.ssh/id_rsa`, KindUnverifiable},
		{"printf 'services: {}\n' > c.yml && docker-compose --file=c.yml up", KindUnverifiable},
		{"docker compose -f compose.prod.yml up -d", ""},
		{"docker run --rm alpine echo hi", ""},
		{"docker run -v pgdata:/var/lib/postgresql/data postgres", ""},
		{"docker run --mount type=volume,src=pgdata,dst=/d postgres", ""},
		{"docker run -v ./src:/app/src:ro -w /app node npm test", ""},
		{"docker run -v /var/run/docker.sock:/var/run/docker.sock x", ""},
		{"docker build -f Dockerfile .", ""},
		{"docker build -t app:latest .", ""},
		{"docker compose up -d", ""},
		{"docker cp src c1:/x", ""},
		{"docker rm -v c1", ""},
		{"docker ps -f status=exited", ""},
	})
}
