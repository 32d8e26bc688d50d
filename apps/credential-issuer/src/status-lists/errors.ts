// The credential issuer's failures of status lists.
import { NotFoundError } from '@svc/http';

export const statusListNotFound = () => new NotFoundError('No such status list', 'status_list_not_found');
