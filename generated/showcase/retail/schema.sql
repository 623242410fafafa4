CREATE TABLE customer (
	customer_id VARCHAR NOT NULL, 
	first_name VARCHAR NOT NULL, 
	last_name VARCHAR NOT NULL, 
	email VARCHAR NOT NULL, 
	phone VARCHAR NOT NULL, 
	loyalty_tier VARCHAR NOT NULL, 
	store_credit FLOAT NOT NULL, 
	joined_on VARCHAR NOT NULL, 
	PRIMARY KEY (customer_id), 
	CONSTRAINT ck_customer_email_len CHECK (length(email) <= 120), 
	CONSTRAINT ck_customer_loyalty_tier_values CHECK (loyalty_tier IN ('standard', 'silver', 'gold')), 
	CONSTRAINT ck_customer_store_credit_min CHECK (store_credit >= 0.0), 
	UNIQUE (email)
);
CREATE TABLE product (
	product_id VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	category VARCHAR NOT NULL, 
	price FLOAT NOT NULL, 
	stock INTEGER NOT NULL, 
	status VARCHAR NOT NULL, 
	PRIMARY KEY (product_id), 
	CONSTRAINT ck_product_category_values CHECK (category IN ('kitchen', 'bedroom', 'bathroom', 'living', 'decor')), 
	CONSTRAINT ck_product_price_min CHECK (price >= 0.0), 
	CONSTRAINT ck_product_status_values CHECK (status IN ('active', 'discontinued'))
);
CREATE TABLE address (
	address_id VARCHAR NOT NULL, 
	customer_id VARCHAR NOT NULL, 
	label VARCHAR NOT NULL, 
	street VARCHAR NOT NULL, 
	city VARCHAR NOT NULL, 
	postal_code VARCHAR NOT NULL, 
	PRIMARY KEY (address_id), 
	CONSTRAINT ck_address_label_values CHECK (label IN ('home', 'work', 'other')), 
	FOREIGN KEY(customer_id) REFERENCES customer (customer_id)
);
CREATE TABLE "order" (
	order_id VARCHAR NOT NULL, 
	customer_id VARCHAR NOT NULL, 
	status VARCHAR NOT NULL, 
	placed_on VARCHAR NOT NULL, 
	delivered_on VARCHAR, 
	ship_street VARCHAR NOT NULL, 
	ship_city VARCHAR NOT NULL, 
	ship_postal_code VARCHAR NOT NULL, 
	total FLOAT NOT NULL, 
	PRIMARY KEY (order_id), 
	CONSTRAINT ck_order_status_values CHECK (status IN ('pending', 'processing', 'shipped', 'delivered', 'cancelled')), 
	CONSTRAINT ck_order_total_min CHECK (total >= 0.0), 
	FOREIGN KEY(customer_id) REFERENCES customer (customer_id)
);
CREATE TABLE order_item (
	item_id VARCHAR NOT NULL, 
	order_id VARCHAR NOT NULL, 
	product_id VARCHAR NOT NULL, 
	quantity INTEGER NOT NULL, 
	unit_price FLOAT NOT NULL, 
	status VARCHAR NOT NULL, 
	PRIMARY KEY (item_id), 
	CONSTRAINT ck_order_item_quantity_min CHECK (quantity >= 1.0), 
	CONSTRAINT ck_order_item_quantity_max CHECK (quantity <= 10.0), 
	CONSTRAINT ck_order_item_unit_price_min CHECK (unit_price >= 0.0), 
	CONSTRAINT ck_order_item_status_values CHECK (status IN ('ordered', 'cancelled', 'return_requested', 'returned')), 
	FOREIGN KEY(order_id) REFERENCES "order" (order_id), 
	FOREIGN KEY(product_id) REFERENCES product (product_id)
);
CREATE TABLE payment (
	payment_id VARCHAR NOT NULL, 
	order_id VARCHAR NOT NULL, 
	method VARCHAR NOT NULL, 
	amount FLOAT NOT NULL, 
	refunded_total FLOAT NOT NULL, 
	status VARCHAR NOT NULL, 
	PRIMARY KEY (payment_id), 
	CONSTRAINT ck_payment_method_values CHECK (method IN ('card', 'paypal')), 
	CONSTRAINT ck_payment_amount_min CHECK (amount >= 0.0), 
	CONSTRAINT ck_payment_refunded_total_min CHECK (refunded_total >= 0.0), 
	CONSTRAINT ck_payment_status_values CHECK (status IN ('captured', 'partially_refunded', 'refunded')), 
	UNIQUE (order_id), 
	FOREIGN KEY(order_id) REFERENCES "order" (order_id)
);
CREATE TABLE refund (
	refund_id VARCHAR NOT NULL, 
	payment_id VARCHAR NOT NULL, 
	amount FLOAT NOT NULL, 
	reason VARCHAR NOT NULL, 
	created_on VARCHAR NOT NULL, 
	PRIMARY KEY (refund_id), 
	CONSTRAINT ck_refund_amount_min CHECK (amount >= 0.0), 
	CONSTRAINT ck_refund_reason_values CHECK (reason IN ('order_cancelled', 'item_cancelled', 'item_returned', 'goodwill')), 
	FOREIGN KEY(payment_id) REFERENCES payment (payment_id)
);
CREATE TABLE return_request (
	return_id VARCHAR NOT NULL, 
	item_id VARCHAR NOT NULL, 
	reason VARCHAR NOT NULL, 
	status VARCHAR NOT NULL, 
	created_on VARCHAR NOT NULL, 
	PRIMARY KEY (return_id), 
	CONSTRAINT ck_return_request_reason_values CHECK (reason IN ('damaged', 'wrong_item', 'not_as_described', 'no_longer_needed')), 
	CONSTRAINT ck_return_request_status_values CHECK (status IN ('requested', 'refunded', 'rejected')), 
	UNIQUE (item_id), 
	FOREIGN KEY(item_id) REFERENCES order_item (item_id)
);
