/* mpierrhan: error handlers, error strings, info and attributes of the machine's libmpi.
 * Each step prints one line; a wrong result prints "BAD ..." and the status is 1. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int bad;

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("BAD %s\n", what);
		bad = 1;
	}
}

static int handled, handled_code;

static void handler(MPI_Comm *comm, int *code, ...)
{
	(void)comm;
	handled++;
	handled_code = *code;
}

static int copies, deletes;

static int copy_attr(MPI_Comm old, int key, void *extra, void *in, void *out, int *flag)
{
	(void)old, (void)key, (void)extra;
	copies++;
	*(void **)out = (char *)in + 1;
	*flag = 1;
	return MPI_SUCCESS;
}

static int delete_attr(MPI_Comm comm, int key, void *val, void *extra)
{
	(void)comm, (void)key, (void)val, (void)extra;
	deletes++;
	return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
	int rank, size, rc, class, len, flag, key, *tagub, nkeys;
	char msg[MPI_MAX_ERROR_STRING], name[MPI_MAX_OBJECT_NAME], value[MPI_MAX_INFO_VAL];
	MPI_Errhandler eh, user;
	MPI_Comm dup;
	MPI_Info info;
	void *got;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
	check(eh == MPI_ERRORS_ARE_FATAL, "default handler");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	/* The engine's errors return their class. */
	rc = MPI_Send(&rank, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD);
	MPI_Error_class(rc, &class);
	MPI_Error_string(rc, msg, &len);
	printf("rank %d: send to a bad rank: %d class %d \"%s\"\n", rank, rc, class, msg);
	check(rc == MPI_ERR_RANK && class == MPI_ERR_RANK && len == (int)strlen(msg), "send error");
	rc = MPI_Barrier(12345);
	printf("rank %d: barrier on a bad communicator: %d\n", rank, rc);
	check(rc == MPI_ERR_COMM, "barrier error");

	/* A duplicate inherits the handler; a user handler runs on MPI_Comm_call_errhandler. */
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_get_errhandler(dup, &eh);
	check(eh == MPI_ERRORS_RETURN, "inherited handler");
	MPI_Comm_create_errhandler(handler, &user);
	MPI_Comm_set_errhandler(dup, user);
	MPI_Add_error_class(&class);
	MPI_Add_error_code(class, &rc);
	MPI_Add_error_string(rc, "a code of the program's");
	MPI_Comm_call_errhandler(dup, rc);
	MPI_Error_string(rc, msg, &len);
	MPI_Error_class(rc, &flag);
	printf("rank %d: user handler ran %d time(s) with code %d (class %d): \"%s\"\n", rank, handled,
		handled_code, flag, msg);
	check(handled == 1 && handled_code == rc && flag == class, "user handler");
	MPI_Errhandler_free(&user);
	check(user == MPI_ERRHANDLER_NULL, "freed handler");

	/* Attributes: predefined keys and a keyval's callbacks on dup and free. */
	MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tagub, &flag);
	check(flag && *tagub >= 32767, "MPI_TAG_UB");
	MPI_Comm_create_keyval(copy_attr, delete_attr, &key, NULL);
	MPI_Comm_set_attr(dup, key, (void *)100);
	{
		MPI_Comm dup2;

		MPI_Comm_dup(dup, &dup2);
		MPI_Comm_get_attr(dup2, key, &got, &flag);
		check(flag && got == (void *)101, "copied attribute");
		MPI_Comm_free(&dup2);
	}
	MPI_Comm_free_keyval(&key);
	MPI_Comm_set_name(dup, "dup of world");
	MPI_Comm_get_name(dup, name, &len);
	MPI_Comm_free(&dup);
	printf("rank %d: attribute copies %d deletes %d, name \"%s\"\n", rank, copies, deletes, name);
	check(copies == 1 && deletes == 2 && strcmp(name, "dup of world") == 0, "attributes");

	/* Info. */
	MPI_Info_create(&info);
	MPI_Info_set(info, "b", "2");
	MPI_Info_set(info, "a", "1");
	MPI_Info_set(info, "b", "two");
	MPI_Info_get_nkeys(info, &nkeys);
	MPI_Info_get_nthkey(info, 0, name);
	MPI_Info_get(info, "b", MPI_MAX_INFO_VAL, value, &flag);
	printf("rank %d: info keys %d, first \"%s\", b=\"%s\"\n", rank, nkeys, name, value);
	check(nkeys == 2 && strcmp(name, "b") == 0 && strcmp(value, "two") == 0, "info");
	rc = MPI_Info_get(MPI_INFO_NULL, "a", 4, value, &flag);
	check(rc == MPI_ERR_INFO, "info error");
	MPI_Info_free(&info);

	MPI_Finalize();
	return bad;
}
